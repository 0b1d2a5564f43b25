sysbench fileio --rand-seed=x --file-test-mode=rndrd run
