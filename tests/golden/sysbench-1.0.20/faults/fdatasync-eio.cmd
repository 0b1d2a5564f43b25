sysbench fileio --file-total-size=8M --file-num=2 --file-test-mode=rndwr --file-fsync-mode=fdatasync --time=5 run # fusefail --fail-fsync=1
