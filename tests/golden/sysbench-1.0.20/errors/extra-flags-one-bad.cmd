sysbench fileio --file-extra-flags=sync,foo cleanup
