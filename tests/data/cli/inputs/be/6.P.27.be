children|ruling|obj
generals|london|NIL
london|best|nil
geese|data|pcomp-n
general|voted|nil
children| leading space|nil
ruling|voted|subj
