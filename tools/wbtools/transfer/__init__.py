"""The transfer model: link profiles, TCP's wire time and one call's time over a link."""
