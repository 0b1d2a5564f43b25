sysbench fileio --file-total-size=8M --file-num=4 --file-test-mode=rndrd --events=50 --time=0 --verbosity=1 run
