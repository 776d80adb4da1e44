def broken(:
    café = 1
