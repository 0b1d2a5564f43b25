sysbench fileio --file-total-size=8M --file-num=2 --file-test-mode=rndrd --time=5 run # fusefail --fail-read=5
