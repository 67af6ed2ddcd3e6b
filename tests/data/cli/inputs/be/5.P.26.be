agreement|judge|mod
agreement|judge|mod
agreement|judge|mod
voted|voted|mod
is|best|nil
new york|arrested|gen
elections|generals|nil
