children|vote|nil
new york|courts|nn
geese|generals|nn
agreement|the big courts|nil
children|vote|nil
new york|voted|subj
courts|elections|gen
the big courts| leading space|subj
