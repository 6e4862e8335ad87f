module clocale

go 1.26.8
