 leading space|children|nil
the big courts| leading space|subj
elections|judge|nn
is|general|subj
data|judge|nil
new_york|judge|pcomp-n
children|vote|nil
