sysbench fileio --file-total-size=8M --file-num=2 prepare # fusefail --fail-write=0
