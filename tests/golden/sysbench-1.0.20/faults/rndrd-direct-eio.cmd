sysbench fileio --file-total-size=8M --file-num=2 --file-test-mode=rndrd --file-extra-flags=direct --time=5 run # fusefail --fail-read=5
