sysbench fileio --file-total-size=0 cleanup
