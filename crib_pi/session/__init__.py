"""The table session: camera frames and button presses in, a scored game out.

``locate`` maps frames to the printed mat, ``tracker`` turns per-frame reads into cards laid
(stable over several frames), and ``table`` turns those and the buttons into game actions.
"""
