sysbench fileio --max-requests=5 --file-num=1 --file-total-size=16K cleanup
