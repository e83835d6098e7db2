"""The platform-free UI kit every adapter draws with: what a press means (``intents``),
what to offer (``controls``), the rule flags in menus (``settings_schema``), words in the
reader's language (``render``, ``i18n``), the rate-limit outbox (``outbox``), the card
pictures (``card_images``) and the set each platform has uploaded (``card_set``).
It never imports the service."""
