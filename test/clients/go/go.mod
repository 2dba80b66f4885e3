module hc-monitor/test/clients/go

go 1.24

require github.com/kristofferahl/go-healthchecksio/v2 v2.1.0
