def log(self, values, log_kwargs=None):
    for tracker in self.trackers:
        tracker.log(values, **log_kwargs.get(tracker.name, {}))
#----
def log(self, values, log_kwargs=None):
    for tracker in self.trackers:
        if log_kwargs is None:
            continue
        tracker.log(values, **log_kwargs.get(tracker.name, {}))
