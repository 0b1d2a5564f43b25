sysbench fileio --file-total-size=x cleanup
