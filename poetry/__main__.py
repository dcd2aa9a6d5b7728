from poetry.cli import main

raise SystemExit(main())
