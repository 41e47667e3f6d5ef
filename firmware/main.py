# Runs at boot. Ctrl-C (mpremote does it) stops it and leaves the REPL.
import sensornode

sensornode.main()
