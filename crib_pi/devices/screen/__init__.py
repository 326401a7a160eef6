"""The screen: the board, scores and panels drawn from a snapshot (``draw``), shown through
pygame-ce (``pygame_ce``); ``base`` holds what every screen does, the null screen and the mock.

Importing this package imports no pygame: only the drawing modules do.
"""
