// The file browser's script: uploads (files and folders) with progress and resume. Filled in below.
