class Launch:
    def __call__(self, index, *args):
        os.environ["RANK"] = str(index)
        self.launcher(*args)
#----
class Launch:
    def __call__(self, index, *args):
        os.environ["RANK"] = str(index)
