sysbench fileio --file-total-size=8M --file-num=4 --file-test-mode=rndrd --time=1 --verbosity=4 run
