pinochet|is|subj
the big courts|arrested|obj
new york|new york|subj
voted|was|NIL
