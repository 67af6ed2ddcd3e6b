best|arrested|obj
generals|nils|subj
is|data|subj
Economy|nil|obj
election|new_york|mod
agreement|judge|mod
elections|new york|gen
pinochet|nil|nil
elections|Economy|subj
