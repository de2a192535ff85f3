"""The laptop simulator's front-ends: the window, the terminal display and the words they
show besides the LEDs (the status line's facts, the key legend).

They draw the controller's words, so they live with the controller; ``hardware`` keeps
the device drivers and fakes that they are built on (the key backends, the panel
interfaces).
"""
