"""The buttons: gestures worked out from line changes (``logic``), the set the main loop polls
and the mock (``base``), GPIO pins (``gpio``) and keys standing in for them on a laptop
(``keys``).

Importing this package imports neither gpiozero nor pygame: each adapter imports its own.
"""
