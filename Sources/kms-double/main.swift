// Placeholder: the kms-double executable is being written.
print("kms-double")
