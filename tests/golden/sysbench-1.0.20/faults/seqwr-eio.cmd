sysbench fileio --file-total-size=8M --file-num=2 --file-test-mode=seqwr --time=5 run # fusefail --fail-write=5
