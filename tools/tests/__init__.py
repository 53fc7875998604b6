"""Unit tests of the Python tools: /usr/bin/python3 -m unittest discover -s tools/tests -t tools"""
