class A:
    def f(self):
        pass
    def g(self):
        return self.x
#----
class A:
    def f(self):
        pass
    def g(self):
        return self.f
