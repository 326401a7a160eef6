"""The table's voice: what is said (``words``), the queue that says it (``speech``) and the
speakers that make the sound (``speakers``: espeak-ng, a recording mock, nothing).

The factory in ``crib_pi.devices`` builds a ``Voice`` like any other device; the main loop
hands it what the ``Announcer`` finds to say after each step, and never waits for it.
"""
