# Annotated fixture for smallfix scan: nothing here may be flagged, and no filter lets
# this file through, so it is not parsed at all.
def add(a, b):
    return a + b
