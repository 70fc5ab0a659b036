"""Every format strategytree reads or writes, one module per format or concern.

- :mod:`~strategytree.formats.reading`: the one call that reads a strategy in
  any format with its game (:func:`~strategytree.formats.reading.read_strategy`),
  telling the format from the content;
- :mod:`~strategytree.formats.writing`: writing the formats that hold any tree
  (the brace grammar, our JSON tree), and ``format``'s normal form;
- :mod:`~strategytree.formats.source`: bytes into text (the size caps, the
  standard input, streams) and positions for messages;
- :mod:`~strategytree.formats.grammar`: the ``grammars/*.lark`` files, their
  LALR parsers' cache, and what every reader shares;
- :mod:`~strategytree.formats.brace`: the brace grammar ``{AB:{10:AA,...}}``
  (with :mod:`~strategytree.formats.brace_trees`, its lark transformers);
- :mod:`~strategytree.formats.jsontree`: our JSON tree, both ways;
- :mod:`~strategytree.formats.graphviz`: our DOT guides and mikemag/Mastermind's
  GraphViz trees; :mod:`~strategytree.formats.lookup`: our CSV lookup tables;
- :mod:`~strategytree.formats.mmstrat`: fancidev/mastermind's ``mmstrat`` text;
  :mod:`~strategytree.formats.arfst`: arfst23/Mastermind's tables and YAML.

Each reader of another program's format is a LALR grammar in ``grammars/``
(loaded once) and a module here that turns what it parsed into the one tree
model of :mod:`strategytree.tree`.  This package imports nothing itself:
importing one format never imports the others.
"""
