sysbench fileio --file-total-size=8M --file-num=4 --file-test-mode=rndrd --verbosity=1 run
