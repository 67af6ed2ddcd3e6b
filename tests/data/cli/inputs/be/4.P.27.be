ruling|U.S.|NIL
court|nil|nil
goose|best|pcomp-n
