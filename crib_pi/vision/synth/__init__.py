"""Synthetic card scenes for training and for the synthetic benchmark.

Card faces are rendered at build or test time from Debian's ``gnome-cards-data`` SVG decks
(GPL-3+), never committed; tables, clutter and light are drawn procedurally.
"""
