# What a user adds to see where a hung rank sits: faulthandler.dump_traceback_later(...)
import faulthandler
import os
if os.environ.get("DUMP_AFTER"):
    faulthandler.dump_traceback_later(float(os.environ["DUMP_AFTER"]), exit=True)
