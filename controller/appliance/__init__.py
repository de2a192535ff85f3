"""The image's first start: the settings file on the boot partition, the network
supervisor (a known Wi-Fi, else a hotspot with a setup page) and what the panel shows
about it. ``spieltisch appliance ...`` runs these; the table itself never waits on them.
"""
