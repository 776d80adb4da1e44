def f(xs, w):
    for x in xs:
        w.add(x)

#----
def f(xs, w):
    for x in xs:
        if w is not None:
            w.add(x)
