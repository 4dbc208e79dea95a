from plugin_eval.cli import main

main()
