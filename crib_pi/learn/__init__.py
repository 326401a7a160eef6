"""Learn mode's pure parts: the words that teach and the warnings before a costly play.

``rules`` says the rule behind every score and what comes next at each step of a deal;
``risks`` warns before a card hands the next player points. Both read only the core (cards,
scoring, game), so the table, the screen and the tests can use them alike. The discard coach,
which learn mode shows in open-hand practice, is ``crib_pi.coach``.
"""
