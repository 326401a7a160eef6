"""The cameras: the frame type, the mock and the null camera (``base``), a webcam through
OpenCV (``cv``) and a Pi camera module through picamera2 (``pi``).

Importing this package imports no camera library: each driver imports its own when it is built.
"""
