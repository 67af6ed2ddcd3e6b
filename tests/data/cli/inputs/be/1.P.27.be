 leading space|ruling|mod
voted|nil|pcomp-n
general|is|pcomp-n
ruling|election|subj
