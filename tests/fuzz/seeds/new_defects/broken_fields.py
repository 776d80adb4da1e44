ok = a ==
x = a if else a
for in :
    if : continue
self. and self.
