sysbench fileio --file-total-size=16M --file-num=4 --file-test-mode=rndrd --verbosity=1 run
