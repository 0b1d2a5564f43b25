sysbench fileio --file-total-size=8M --file-num=8 --file-test-mode=rndrd run
