sysbench fileio --file-total-size=8M --file-num=4 --file-io-mode=async --file-test-mode=rndrd --events=2000 --time=0 run
