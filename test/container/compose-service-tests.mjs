// Stands in for the compose recipe's `tests` service (image: my-service-tests), the user's own tests:
// like a service under test, it creates Rex through PETSTORE_URL with PETSTORE_KEY and retries once
// on the 503 the recipe's `load` job arms. With `none` as argument it creates nothing, so that the
// suite can prove the recipe's `verify` job fails then.
if (process.argv[2] === 'none') process.exit(0)
for (let attempt = 1; attempt <= 2; attempt++) {
  const res = await fetch(`${process.env.PETSTORE_URL}/pets`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${process.env.PETSTORE_KEY}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'Rex', categoryId: 1 }),
  })
  console.log(`service tests: POST /pets ${res.status}`)
  if (res.status === 201) process.exit(0)
}
process.exit(1)
