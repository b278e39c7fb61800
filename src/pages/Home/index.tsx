export default () => <div>home</div>;
