sysbench fileio --file-block-size=x cleanup
