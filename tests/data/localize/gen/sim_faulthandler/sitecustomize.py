# What a user adds to see where a hung rank sits: faulthandler.dump_traceback_later(...),
# then the job is killed (scancel / kill -9) a few seconds later.
import faulthandler
import os
import signal
import threading
if os.environ.get("DUMP_AFTER") and "RANK" in os.environ:
    # rank 0 dumps a moment after the others
    delay = float(os.environ["DUMP_AFTER"]) + (1.0 if os.environ["RANK"] == "0" else 0.0)
    faulthandler.dump_traceback_later(delay, exit=False)
    t = threading.Timer(float(os.environ["DUMP_AFTER"]) + 4.0,
                        lambda: os.kill(os.getpid(), signal.SIGKILL))
    t.daemon = True
    t.start()
