"""What the Jupyter servers that ``scripts/play.sh`` starts need beyond their defaults.

Nothing here is imported by the game: ``play.sh`` names these classes in the servers'
own settings (``--ServerApp.kernel_websocket_connection_class`` for JupyterLab,
``--Voila.kernel_websocket_connection_class`` for the Voila app).
"""
