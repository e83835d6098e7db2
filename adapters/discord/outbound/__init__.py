"""What goes out to Discord: the table message (``table``), hand messages (``hands``), the
private menus (``menus``), answers to interactions (``replies``)."""
