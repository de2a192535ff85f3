"""The appliance on fake hardware, for the test suite and the benchmarks.

It ships inside the package, as gpiozero ships its ``MockFactory``: the tests and the
benchmarks drive the same appliance the same way (a process started as systemd starts
it, or the appliance in this process on mock pins and a fake clock), and the benchmarks
import the program, never the test suite. An installed copy carries it too, so the
installed program can be exercised on fake hardware without a checkout.

Nothing in the running appliance imports this package.

* :mod:`controller.testing.clock`: a clock moved by hand;
* :mod:`controller.testing.rig`: the appliance in this process, stepped by hand;
* :mod:`controller.testing.files`: configs for fake hardware, saves put on the table;
* :mod:`controller.testing.notify`: systemd's end of sd_notify;
* :mod:`controller.testing.process`: a real ``spieltisch run`` process and its
  resources;
* :mod:`controller.testing.kill_loop`: pulling the plug on that process again and again.
"""
