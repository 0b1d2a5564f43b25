sysbench fileio --file-total-size=8M --file-num=2 --file-test-mode=rndwr --time=5 run # fusefail --fail-write=5 --errno=enospc
